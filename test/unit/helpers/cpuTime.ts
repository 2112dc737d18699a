/**
 * CPU time for the bounds that show an algorithm stays fast: a machine busy with other work stretches the
 * wall clock (a 2 s bound failed at 2.4 s beside a CPU hog) but not the CPU time this process spends, and
 * work that grows too fast (a backtracking regex, a quadratic loop) still runs far past the bound.
 */
export function cpuStart(): NodeJS.CpuUsage {
  return process.cpuUsage();
}

/** CPU milliseconds (user and system, all of this process's threads) since `start`. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}
