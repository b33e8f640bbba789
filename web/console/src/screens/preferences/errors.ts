// errorList: a refused change's messages, for FormError.
import { ApiError } from "../../api/client";

export function errorList(e: unknown): string[] | undefined {
  if (!e) return undefined;
  return e instanceof ApiError ? e.messages : [(e as Error).message];
}
