/**
 * Whether a process with this pid exists: signal 0 checks without sending anything. EPERM means it
 * exists under another user — alive, for a lock or a world copy it owns.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
