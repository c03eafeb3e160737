/** Replaces AssemblyScript's `env.abort` (asc --use abort=...): a panel has nowhere to report, so it traps. */
export function panelAbort(message: string | null, file: string | null, line: u32, column: u32): void {
  unreachable();
}
