import { OpenAiCompatibleProvider } from '../../src/models/openai-provider';
import { startScriptedModelServer, type Script, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import type { HostOptions } from '../../src/host';
import { startTestServer, type TestServer } from '../server/harness';
import { launchChromium, type TestBrowser } from './browser';

export interface TaskPageSuite {
  readonly browser: TestBrowser;
  /** The scripted model the host's tasks talk to. */
  readonly model: ScriptedModelServer;
  readonly server: TestServer;
  /** The page's URL. */
  readonly baseUrl: string;
}

/**
 * Chromium and a listening server whose tasks run on a scripted model (`script`), for one test file:
 * started before its tests, stopped after them (jobs the tasks left running are cancelled first: they
 * outlive a host). Read the fields inside tests.
 */
export function useTaskPageServer(script: Script, hostOptions: Partial<HostOptions> = {}): TaskPageSuite {
  const suite = {} as { -readonly [K in keyof TaskPageSuite]: TaskPageSuite[K] };
  beforeAll(async () => {
    suite.browser = await launchChromium();
    suite.model = await startScriptedModelServer(script);
    const provider = new OpenAiCompatibleProvider({ baseUrl: suite.model.baseUrl, model: 'scripted', maxRetries: 0 });
    suite.server = await startTestServer({ port: 0, provider, runtime: { maxOutputTokens: 500 } }, hostOptions);
    suite.baseUrl = await suite.server.listenHttp();
  });
  afterAll(async () => {
    const host = suite.server?.host;
    for (const job of (await host?.jobs.list({ status: 'running' })) ?? []) await host!.jobs.cancel(job.id, { graceMs: 100 });
    await suite.server?.dispose();
    await suite.model?.close();
    await suite.browser?.close();
  });
  return suite;
}
