// The rendered content of one channel as its recipient sees it: the email in a sandboxed
// frame, the in-app card, the SMS bubble, the push notification, the chat message, and the
// webhook's JSON.
import type { components } from "../../api/client";
import type { Channel } from "../../api/templateForm";

type Rendered = NonNullable<components["schemas"]["TemplatePreview"]["channels"]>[string];

export function ChannelPreview({ channel, content }: { channel: Channel; content?: Rendered }) {
  if (!content) return <p className="muted">No content to preview: write some on the left.</p>;
  switch (channel) {
    case "email":
      return (
        <>
          <p>
            <span className="muted">Subject: </span>
            <span data-testid="preview-subject">{content.subject}</span>
          </p>
          {content.html ? <iframe title="Email preview" sandbox="" srcDoc={content.html} className="email-frame" /> : null}
          {content.text ? (
            <>
              <h4 id="preview-text-h">Plain text</h4>
              <pre className="preview-text" aria-labelledby="preview-text-h">
                {content.text}
              </pre>
            </>
          ) : null}
        </>
      );
    case "inApp":
      return (
        <article className="inapp-card" aria-label="In-app notification">
          <strong>{content.title}</strong>
          {content.message ? <p>{content.message}</p> : null}
          {content.url ? <p className="muted small">Opens {content.url}</p> : null}
        </article>
      );
    case "sms":
    case "whatsapp":
      return (
        <article className="sms-bubble" aria-label={channel === "sms" ? "SMS" : "WhatsApp message"}>
          <p data-testid="preview-body">{content.body}</p>
          <p className="muted small">{[...(content.body ?? "")].length} characters</p>
        </article>
      );
    case "webPush":
    case "mobilePush":
      return (
        <article className="push-card" aria-label="Push notification">
          <strong>{content.title}</strong>
          <p>{content.body}</p>
          {content.url ? <p className="muted small">Opens {content.url}</p> : null}
        </article>
      );
    case "webhook":
      return (
        <pre className="code" aria-label="Webhook payload fields">
          {JSON.stringify({ title: content.title, body: content.body, icon: content.icon, url: content.url }, null, 2)}
        </pre>
      );
    default:
      return (
        <article className="chat-card" aria-label="Chat message">
          {content.title ? <strong>{content.title}</strong> : null}
          <p style={{ whiteSpace: "pre-wrap" }}>{content.body}</p>
        </article>
      );
  }
}
