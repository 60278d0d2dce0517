/**
 * Invariant: the host's runtime suite is scored by its checks, both ways, with no model server. Its
 * reference solutions (session scripts played through the real runtime in fresh workspaces) score
 * full marks on every task; each flawed solution loses exactly the rubric items it names
 * (`loses`); replaying the same scripts gives the same scores. The tests are the testkit's
 * `solutionTests`, which every plugin's suite uses too.
 */
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import { replaySolutions, solutionProblems, solutionTests } from '../../src/testkit/suite-solutions';
import { tempDir } from '../support/temp-host';

solutionTests(runtimeSuite, { host: {}, seconds: 60, timeoutMs: 300_000 });

it('finds a flawed replay wrong when held to the reference (the kit’s tests can fail)', async () => {
  const dir = tempDir('cowork-bench-runtime-held-');
  try {
    const flawed = await replaySolutions(runtimeSuite, 'flawed-1', { outDir: dir.path, host: {}, seconds: 60 });
    const problems = solutionProblems(flawed, runtimeSuite, 'reference');
    expect(problems).toHaveLength(flawed.trials.length);
    expect(problems[0]).toMatch(/^[\w-]+: lost .+ \(.+\); expected to lose nothing$/);
  } finally {
    dir.cleanup();
  }
}, 120_000);
