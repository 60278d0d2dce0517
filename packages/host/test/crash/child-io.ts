/** The stdin/stdout protocol of the processes the crash tests kill (commit-child.ts, group-commit-child.ts). */

/** Resolves on a `go` line on stdin. */
export function goSignal(): Promise<void> {
  return new Promise((resolve) => {
    let received = '';
    const onData = (chunk: string): void => {
      received += chunk;
      if (!received.split('\n').includes('go')) return;
      process.stdin.off('data', onData);
      resolve();
    };
    process.stdin.setEncoding('utf8').on('data', onData);
  });
}

/** Writes one line, waiting for the pipe to drain so that a slow reader cannot make us buffer without bound. */
export function emit(line: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(`${line}\n`)) resolve();
    else process.stdout.once('drain', resolve);
  });
}
