/**
 * One tmux pane, as the connector addresses it. `window` is an index (decimal digits) or a window name;
 * `pane` is an index.
 */
export interface TmuxPaneTarget {
  readonly session: string;
  readonly window: string;
  readonly pane: string;
}

/**
 * The `-t` argument for `target`: `=<session>:<window>.<pane>`, with `=` before the session (and before a
 * window name) so tmux matches it exactly — without it, `-t s1` may pick `s10` by prefix or by pattern.
 *
 * @example
 * tmuxTargetArgument({ session: 'perry', window: '0', pane: '1' });      // '=perry:0.1'
 * tmuxTargetArgument({ session: 'perry', window: 'agent', pane: '0' });  // '=perry:=agent.0'
 */
export function tmuxTargetArgument(target: TmuxPaneTarget): string {
  const window = isIndex(target.window) ? target.window : `=${target.window}`;
  return `=${target.session}:${window}.${target.pane}`;
}

/** `<session>:<window>.<pane>` as configured: the pane's name in receipts and messages. */
export function paneLabel(target: TmuxPaneTarget): string {
  return `${target.session}:${target.window}.${target.pane}`;
}

/** Whether a window or pane reference is an index: one or more ASCII decimal digits. */
export function isIndex(reference: string): boolean {
  return /^[0-9]+$/.test(reference);
}
