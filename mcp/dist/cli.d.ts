/** The package's version (its package.json, beside `src/` and `dist/`), reported to MCP clients and by `--version`. */
export declare function packageVersion(): string;
/**
 * Runs `bizapi-mcp` with `argv` (the arguments after the command) and `env`: serves until stdin closes, or
 * prints the usage or version. Resolves to the exit code of a start that failed (1, the reason on stderr: a
 * bad flag or setting) or of `--help` / `--version` (0); `undefined` while the server runs.
 */
export declare function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<number | undefined>;
