import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalWorkspace } from '@h/tools';
import { describeWorkspaceBehaviour } from './workspace-behaviour';

// The same checks against the engine's reference implementation: tools must see no difference
// between a local directory and a sandbox.
const dir = mkdtempSync(path.join(os.tmpdir(), 'h-parity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWorkspaceBehaviour('LocalWorkspace (reference)', () => new LocalWorkspace(dir));
