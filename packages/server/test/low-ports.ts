/**
 * Binds `listen` to a free port below the kernel's ephemeral range (32768 and up on Linux). A port of
 * that range, once released, may be handed to any connection another test opens; a port below it is
 * only ever taken by an explicit listen, so a child process told to listen on it, or a server that
 * stops and listens again, finds it free. `listen` rejects with EADDRINUSE when the port is taken.
 */
export async function listenOnLowPort<T>(
  listen: (port: number) => Promise<T>,
): Promise<{ port: number; listening: T }> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      return { port, listening: await listen(port) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 100) throw error;
    }
  }
}
