import { SECRET_REFUSAL, isSecretPath } from '../secret-paths';
import { ToolError } from '../tool.types';

/** Normalises a model-supplied path for the secret check ("/workspace/a/.env" -> "a/.env"). */
export function assertNotSecret(path: string, root: string): void {
  const rel = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  if (isSecretPath(rel)) throw new ToolError(`${path} ${SECRET_REFUSAL}`);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
