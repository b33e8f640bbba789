// RequestPage: one send request on a page of its own (/apps/:appId/activity/:requestId),
// reached from a message log row and from the Activity screen: its messages and, for a
// workflow send, each recipient's run with every step's details (RequestDetail).
import { useEffect } from "react";
import { Link, useOutletContext, useParams } from "react-router-dom";
import type { App } from "../queries";
import RequestDetail from "./RequestDetail";
import { shortId } from "./requests";

export default function RequestPage() {
  const app = useOutletContext<App>();
  const requestId = useParams().requestId ?? "";
  useEffect(() => {
    document.title = `Request ${shortId(requestId)} · Activity · ${app.name} · Herald`;
  }, [app.name, requestId]);
  return (
    <>
      <p>
        <Link to=".." relative="path">
          ← Activity
        </Link>
      </p>
      <h1>Request {shortId(requestId)}</h1>
      <RequestDetail appId={app.id!} requestId={requestId} />
    </>
  );
}
