/** Row type of `signature_replay` (migration 2026_11_24_0032). */
export interface SignatureReplayTable {
  /** Lowercase hex of the accepted signature. */
  signature: string;
  /** Milliseconds since the epoch after which the signature's timestamp is outside the window anyway. */
  expires_at: number;
}
