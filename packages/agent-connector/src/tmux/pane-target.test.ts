import { describe, expect, it } from 'vitest';
import { paneLabel, tmuxTargetArgument } from './tmux-agent-connector.js';

describe('tmuxTargetArgument / paneLabel', () => {
  it('matches the session, and a window name, exactly', () => {
    expect(tmuxTargetArgument({ session: 's1', window: '0', pane: '2' })).toBe('=s1:0.2');
    expect(tmuxTargetArgument({ session: 's1', window: 'agents', pane: '0' })).toBe('=s1:=agents.0');
    expect(paneLabel({ session: 's1', window: 'agents', pane: '0' })).toBe('s1:agents.0');
  });
});
