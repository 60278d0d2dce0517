/**
 * The hostile-path corpus and its symlink fixture live in the test kit (src/testkit/path-corpus.ts)
 * so that plugins' tests run the same corpus against their own path inputs.
 */
export { fullCorpus, hostileCorpus, legitCorpus, makePathFixture, SENTINEL_TEXT, type CorpusEntry, type PathFixture } from '../../src/testkit/path-corpus';
