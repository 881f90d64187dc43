/** The Docker engine connection (dockerode, from DOCKER_HOST or the default socket), and whether one answers. */
import Docker from 'dockerode';

let shared: Docker | null = null;

export function docker(): Docker {
  shared ??= new Docker();
  return shared;
}

export async function dockerAnswers(
  timeoutMs = 1_000,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await Promise.race([
      docker().ping(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
    return { ok: true };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return {
      ok: false,
      reason:
        err.code === 'ENOENT' || err.code === 'ECONNREFUSED'
          ? `${err.code} on the engine socket`
          : err.message,
    };
  }
}
