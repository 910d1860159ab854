import type Docker from 'dockerode';

/** A .catch() handler that swallows the given Docker API status codes (e.g. 404, 409). */
export function ignoreStatus(...codes: number[]) {
  return (e: unknown): void => {
    if (!codes.includes((e as { statusCode?: number }).statusCode ?? -1)) throw e;
  };
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

/** Removes a volume; a just-removed container may hold it for a moment (409), so retry briefly. */
export async function removeVolume(docker: Docker, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    try {
      await docker.getVolume(name).remove();
      return;
    } catch (e) {
      const code = (e as { statusCode?: number }).statusCode;
      if (code === 404) return;
      if (code !== 409) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
