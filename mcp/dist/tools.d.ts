/**
 * The tools of `bizapi mcp` (docs/mcp.md#tools), generated from the OpenAPI document: one per operation
 * under `/v1`, named by its `operationId`, whose input schema holds the path and query parameters at the top
 * level by their names and the JSON request body under `body`, with every `$ref` inlined so that clients
 * which do not follow references still see the fields. Pure: no I/O, no MCP SDK.
 */
/** A JSON Schema object (JSON Schema 2020-12, the dialect of OpenAPI 3.1 and of MCP tool schemas). */
export type JsonSchema = Record<string, unknown>;
/** The MCP tool annotations this server sets (docs/mcp.md#tools). */
export interface ToolAnnotations {
    /** The operation's summary. */
    title?: string;
    /** `true` for GET. */
    readOnlyHint: boolean;
    /** `true` for DELETE; `false` for the other writes (creates add, PATCH changes only the fields sent). */
    destructiveHint?: boolean;
    /** `true` for GET, PATCH and DELETE (a repeat with the same arguments changes nothing more); `false` for POST. */
    idempotentHint: boolean;
    /** Always `false`: the tools act on the one configured API. */
    openWorldHint: boolean;
}
/** How one argument of a tool reaches the HTTP request. */
export interface ToolParameter {
    name: string;
    in: 'path' | 'query';
    required: boolean;
    /** An array-typed query parameter: each value is sent as its own `name=value` (`search=a&search=b`). */
    repeated: boolean;
    /** The parameter's schema, `$ref`s inlined: a path argument is checked against it before it reaches the URL (docs/mcp.md#path-arguments). */
    schema: JsonSchema;
}
/** One operation of the document as a tool. */
export interface OperationTool {
    /** The `operationId`: the tool's name. */
    name: string;
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    /** The path template, e.g. `/v1/client/{client_id}`. */
    path: string;
    /** The operation's summary (may be empty). */
    summary: string;
    /** The summary and the first sentence of the operation's description, plus how to page a list. */
    description: string;
    /** The whole description of the operation, as documented. */
    fullDescription: string;
    /** `{type: 'object', properties, required, additionalProperties: false}`, no `$ref` except for recursive shapes (`$defs`). */
    inputSchema: JsonSchema & {
        type: 'object';
    };
    parameters: ToolParameter[];
    /** Whether the operation takes a JSON request body (the `body` argument), and whether it must. */
    body: 'none' | 'optional' | 'required';
    /** Whether the operation answers a page `{next, previous, results}` (it takes a `cursor`). */
    paged: boolean;
    annotations: ToolAnnotations;
}
/** The first sentence of `text` (up to the first `.`, `!` or `?` followed by white space, or the first blank line). */
export declare function firstSentence(text: string): string;
/**
 * The tools of `document` (an OpenAPI 3.1 document as `bizapi openapi` prints it): one per operation whose path
 * starts with `/v1` but the event stream (it never ends), sorted by name. Header parameters (`Idempotency-Key`) are not arguments: the client sets
 * them. A body that is not JSON (a raw upload) is not offered.
 * @throws Error when an operation has no `operationId`, two operations share one, a parameter is named `body`
 *   or appears twice, or a `$ref` points at nothing
 */
export declare function buildOperationTools(document: unknown): OperationTool[];
