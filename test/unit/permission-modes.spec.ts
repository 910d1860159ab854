// The console tells people what each permission mode does; this holds the words to the worker's
// behaviour (authorizeCall decides every tool call of a run).
import { MODE_INFO } from '../../apps/web/src/features/console/permission-modes';
import { authorizeCall, type PermissionMode } from '../../libs/runs/src/permission-policy';

const MODES = Object.keys(MODE_INFO) as PermissionMode[];

describe('permission modes as the console describes them', () => {
  it.each(MODES)('should ask in mode %s exactly when the console says it asks', (mode) => {
    for (const category of ['command', 'write', 'delete']) {
      expect(authorizeCall(mode, category).behavior === 'ask').toBe(MODE_INFO[mode].asks);
    }
    expect(authorizeCall(mode, 'read')).toEqual({ behavior: 'allow' });
  });

  it('should describe bypass and skip alike, since they behave alike, and claim no extra record', () => {
    expect(authorizeCall('bypass', 'command')).toEqual(authorizeCall('skip', 'command'));
    for (const mode of ['bypass', 'skip'] as const) {
      expect(MODE_INFO[mode].help).toMatch(/never asks/i);
      expect(MODE_INFO[mode].help).not.toMatch(/record|log|approv/i);
    }
  });
});
