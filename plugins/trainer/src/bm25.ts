/**
 * BM25 (Okapi; k1 = 1.2, b = 0.75) and the normalised similarity the held-out filter uses.
 *
 * The corpus is every document the filter compares: the training candidates and the held-out tasks,
 * so every query term has an idf. idf(t) = ln(1 + (N - n_t + 0.5) / (n_t + 0.5)), never negative, so
 * a word in every document ("the", "resource") weighs almost nothing and a rare one (a value, a
 * name) weighs most.
 *
 * similarity(q, d) = score(q, d) / score(q, q): 1 when d says what q says at q's length, 0 when they
 * share no term. It can pass 1 a little when d is shorter than q (length normalisation); the filter
 * drops at >= 0.8 either way. Tokens: lower-cased runs of letters and digits.
 */
const K1 = 1.2;
const B = 0.75;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

interface Doc {
  readonly terms: Map<string, number>;
  readonly length: number;
}

export class Bm25 {
  private readonly documentFrequency = new Map<string, number>();
  private readonly docs: Doc[] = [];
  private totalLength = 0;

  constructor(corpus: readonly string[]) {
    for (const text of corpus) this.docs.push(this.add(text));
  }

  private add(text: string): Doc {
    const tokens = tokenize(text);
    const terms = new Map<string, number>();
    for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
    for (const term of terms.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    this.totalLength += tokens.length;
    return { terms, length: tokens.length };
  }

  idf(term: string): number {
    const n = this.documentFrequency.get(term) ?? 0;
    const N = this.docs.length;
    return Math.log(1 + (N - n + 0.5) / (n + 0.5));
  }

  /** BM25 score of document text `d` for query text `q`, with this corpus's statistics. */
  score(q: string, d: string): number {
    return this.scoreDoc(tokenize(q), docOf(d));
  }

  /** score(q, d) / score(q, q); 0 for a query with no terms. */
  similarity(q: string, d: string): number {
    const query = tokenize(q);
    const self = this.scoreDoc(query, docOf(q));
    return self === 0 ? 0 : this.scoreDoc(query, docOf(d)) / self;
  }

  private scoreDoc(query: readonly string[], doc: Doc): number {
    const avgdl = this.docs.length === 0 ? 1 : Math.max(this.totalLength / this.docs.length, 1);
    let score = 0;
    for (const term of new Set(query)) {
      const tf = doc.terms.get(term) ?? 0;
      if (tf === 0) continue;
      score += this.idf(term) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avgdl)));
    }
    return score;
  }
}

function docOf(text: string): Doc {
  const tokens = tokenize(text);
  const terms = new Map<string, number>();
  for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
  return { terms, length: tokens.length };
}
