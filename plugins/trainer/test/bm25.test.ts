import { Bm25, tokenize } from '../src/bm25';

describe('BM25 similarity', () => {
  const corpus = ['read the billing settings and tell me its port', 'append the line alpha 1200 to notes', 'read the search settings and tell me its timeout'];

  test('tokens are lower-cased runs of letters and digits', () => {
    expect(tokenize('Read "alpha 1200", res_ab!')).toEqual(['read', 'alpha', '1200', 'res', 'ab']);
  });

  test('a text is fully similar to itself, and not at all to a text sharing no term', () => {
    const bm25 = new Bm25(corpus);
    expect(bm25.similarity(corpus[0]!, corpus[0]!)).toBeCloseTo(1, 10);
    expect(bm25.similarity(corpus[0]!, 'completely unrelated words')).toBe(0);
    expect(bm25.similarity('', corpus[0]!)).toBe(0);
  });

  test('rare terms weigh more than common ones', () => {
    const services = ['billing', 'search', 'mailer', 'gateway', 'ledger', 'catalog'];
    const keys = ['port', 'timeout', 'retries', 'workers'];
    const bm25 = new Bm25(services.flatMap((s) => keys.map((k) => `read the ${s} settings and tell me its ${k}`)));
    expect(bm25.idf('billing')).toBeGreaterThan(bm25.idf('read'));
    // Sharing the rare words (service, key) matters more than sharing the template.
    const query = 'read the billing settings and tell me its port';
    const sameTemplate = bm25.similarity(query, 'read the search settings and tell me its timeout');
    const sameValues = bm25.similarity(query, 'billing port');
    expect(sameValues).toBeGreaterThan(sameTemplate);
  });

  test('a light rewording stays above 0.8; another value drops below', () => {
    const bm25 = new Bm25([...corpus, 'append the line alpha 1200 to notes please', 'append the line cedar 3311 to notes']);
    expect(bm25.similarity(corpus[1]!, 'append the line alpha 1200 to notes please')).toBeGreaterThanOrEqual(0.8);
    expect(bm25.similarity(corpus[1]!, 'append the line cedar 3311 to notes')).toBeLessThan(0.8);
  });
});
