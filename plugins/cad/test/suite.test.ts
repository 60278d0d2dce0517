/**
 * Invariant: the cad suite is scored by its checks, both ways, with no model server. Its reference
 * solutions (session scripts played through the real runtime with the cad plugin, in fresh
 * workspaces, judged by FreeCAD reading the STEP exports and by cad_check) score full marks on every
 * task; each flawed solution loses exactly the rubric items it names (`loses`); replaying the same
 * scripts gives the same scores and details.
 */
import { solutionTests } from '@cowork/host/testkit';
import { cadSuite, plugin, sharedKernel } from '../src';

// Every trial opens and closes a host; holding the kernel keeps one OpenCascade worker for them all.
beforeAll(() => sharedKernel().acquire({ warm: true }));
afterAll(() => sharedKernel().release());

solutionTests(cadSuite, { host: { plugins: [plugin] } });
