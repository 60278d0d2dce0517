/**
 * Invariant: an op that fails its kind's op schema is refused with `invalid_op` and writes nothing,
 * and the refusal is about the op the caller meant. When the schema is a `oneOf` of typed ops (as
 * `opShape` makes them) and the op's `type` names one, only that op type's problems are listed (not
 * every alternative's); an unknown or missing `type` is said as such with the kind's op types. A
 * schema of another shape keeps Ajv's whole list.
 */
import type { Host } from '../../src/host';
import { caught, openTempHost } from '../support/temp-host';
import { sitePlugin } from '../support/site-kind';

describe('op schema errors', () => {
  let host: Host & { dispose: () => Promise<void> };
  let id: string;
  beforeAll(async () => {
    host = await openTempHost({ plugins: [sitePlugin] });
    id = (await host.resources.create({ kind: 'text', content: { text: 'abc' }, operator: 'human:ann' })).id;
  });
  afterAll(() => host.dispose());

  /** The refusal of `op` on the text resource, after checking it wrote nothing. */
  async function refusal(resourceId: string, op: unknown): Promise<{ code?: string; message: string; problems: unknown }> {
    const before = await host.resources.get(resourceId);
    const error = await caught(() => host.resources.commit(resourceId, { baseRevision: before.revision, op, operator: 'human:ann' }));
    const after = await host.resources.get(resourceId);
    expect([after.revision, after.content]).toEqual([before.revision, before.content]);
    expect(await host.resources.listCandidates(resourceId)).toEqual([]);
    return { code: error.code, message: error.message, problems: error.details?.problems };
  }

  it('lists only the problems of the op type the op names: a misspelt field', async () => {
    expect(await refusal(id, { type: 'append', txt: 'd' })).toEqual({
      code: 'invalid_op',
      message: `the op does not match the text op schema for type "append": (root) must have required property 'text'; (root) must NOT have additional properties: "txt"`,
      problems: ["(root) must have required property 'text'", '(root) must NOT have additional properties: "txt"'],
    });
  });

  it('lists only the problems of the op type the op names: a value out of range', async () => {
    expect(await refusal(id, { type: 'insert', at: -1, text: 'd' })).toEqual({
      code: 'invalid_op',
      message: 'the op does not match the text op schema for type "insert": /at must be >= 0',
      problems: ['/at must be >= 0'],
    });
  });

  it('says an unknown op type is unknown and names the kind’s op types', async () => {
    const problem = 'unknown op type "explode"; the text kind\'s op types are: set, append, insert, delete';
    expect(await refusal(id, { type: 'explode', text: 'd' })).toEqual({ code: 'invalid_op', message: `the op does not match the text op schema: ${problem}`, problems: [problem] });
  });

  it('says an op without a type has none and names the kind’s op types', async () => {
    const problem = 'the op has no "type"; the text kind\'s op types are: set, append, insert, delete';
    expect(await refusal(id, { text: 'd' })).toEqual({ code: 'invalid_op', message: `the op does not match the text op schema: ${problem}`, problems: [problem] });
  });

  it('keeps the whole list for an op schema that is not a oneOf of typed ops', async () => {
    const site = (await host.resources.create({ kind: 'test.site', operator: 'human:ann' })).id;
    expect(await refusal(site, { path: 'a.html' })).toEqual({
      code: 'invalid_op',
      message: 'the op does not match the test.site op schema',
      problems: ["(root) must have required property 'text'"],
    });
  });
});
