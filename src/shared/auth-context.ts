/**
 * Who is calling: what a valid `X-API-Key` resolves to (`src/modules/auth`), attached to the request as
 * `request.auth` and passed to every service. Lives in `shared/` so that `shared/` and `db/` need nothing
 * from `modules/`.
 */

/** The plans of a business (docs/api.md#plans). */
export const PLANS = ['FREE', 'BASIC', 'TEAM', 'AGENCY'] as const;
/** A plan name. */
export type Plan = (typeof PLANS)[number];

/** What a valid `X-API-Key` resolves to; attached to the request as `request.auth`. */
export interface AuthContext {
  businessId: number;
  /** The API key's id; 0 for a call made for an MCP token (then {@link mcpTokenId} is set). */
  apiKeyId: number;
  /** The MCP token a remote MCP call was made for (docs/mcp.md#remote-mcp); absent for API-key calls. */
  mcpTokenId?: number;
  plan: Plan;
  /** IANA time zone of the business: "today" and date filters use it. */
  timezone: string;
  /** The decrypted secret, used to verify `X-Signature`. Never logged, never serialised. */
  secret: string;
}
