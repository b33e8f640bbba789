// Request body types of the management API by path and method, for the feature API modules'
// typed calls (so a call's signature follows the OpenAPI document, like the client does).
import type { paths } from "./schema.gen";

type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** Body is the JSON body of method on path. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = JsonBody<NonNullable<paths[P][M]>>;
