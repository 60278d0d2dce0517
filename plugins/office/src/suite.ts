import { join } from 'node:path';
import { defineSuite } from '@cowork/host';
import { deckChecks } from './suite-checks/deck';
import { documentChecks } from './suite-checks/document';
import { renderChecks } from './suite-checks/render';
import { runChecks } from './suite-checks/run';

/**
 * The office suite (`cowork bench run office`): what people ask an agent to do with decks and
 * documents (split a crowded slide, add an agenda, chart a slide's figures, structure a memo, fix
 * an imported report's table...), scored as a person would look at the result, with the real
 * applications: LibreOffice renders the deck or document and `office_lint` finds no text overflowing
 * its box and no empty placeholders; poppler reads a rendered page; python-docx reads the exported
 * docx's headings, paragraphs, lists, tables and page; the content gives slides, bullets, notes,
 * tables, charts and blocks; the run record shows what Main did (office_lint on its final
 * revision, a subagent's draft accepted). Tasks and their recorded solutions are in `suite/`.
 */
export const officeSuite = defineSuite({
  name: 'office',
  description: 'Decks and documents: slides, bullets, notes, tables, charts, headings, lists and page setup, judged through LibreOffice, office_lint and python-docx.',
  // From src (tests) and dist (the built plugin) alike: the folder beside both.
  dir: join(__dirname, '..', 'suite'),
  instructions: [
    'The resources of this task are office decks (office.presentation) and documents (office.document): read them, then change them with their ops,',
    'one op per commit, each on the revision you read. Slides and blocks have stable ids, and ops address them by id. Before you finish, run office_lint',
    'on what you changed and fix what it finds (text overflowing its box, empty placeholders).',
  ].join(' '),
  checks: { ...deckChecks, ...documentChecks, ...renderChecks, ...runChecks },
});
