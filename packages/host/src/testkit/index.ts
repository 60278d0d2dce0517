/** The test kit for plugin authors and the host's own tests. */
export {
  reply,
  startScriptedModelServer,
  type DelayStep,
  type HangStep,
  type ReplyStep,
  type Script,
  type ScriptStep,
  type ScriptedModelServer,
  type ScriptedToolCall,
  type StatusStep,
} from './scripted-model-server';
export { LiveTestClient, type LiveMessage } from './live-client';
export { openTempHost, tempDir, type TempHost, type TempHostOptions } from './temp-host';
export { controlLabels, fieldKeys, leaves, useControl } from './view-controls';
export { fuzzRoutes, type FuzzAnswer, type FuzzFailure, type RouteFuzzOptions, type RouteFuzzReport } from './route-fuzz';
export { forgeZip, zeroBomb, type ForgedEntry } from './forge-zip';
export { seededRandom } from '../util/random'; // also in the plugin API
export { replaySolutions, solutionProblems, solutionTests, type SolutionTestOptions } from './suite-solutions';
export { freePort } from './free-port';
export { fullCorpus, hostileCorpus, legitCorpus, makePathFixture, SENTINEL_TEXT, type CorpusEntry, type PathFixture } from './path-corpus';
export { startPostgresServer, postgresBindir, type PostgresServer, type PostgresServerOptions } from './postgres-server';
