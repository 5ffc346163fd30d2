import { describe, expect, it } from 'vitest';
import { BadInputError, ErrorCode } from '../../src/util/errors.js';
import {
  INTENT_SCHEMA_VERSION,
  type IntentGraph,
  intentAtoms,
  intentGraphJsonSchema,
  parseIntentGraph,
} from '../../src/intent/index.js';

function goodGraph(): IntentGraph {
  return {
    version: INTENT_SCHEMA_VERSION,
    trees: [
      {
        entity: { id: 'club', label: 'club', grounding: [{ tableId: 'league.clubs', kind: 'table-name', score: 1 }] },
        attributes: [
          {
            id: 'club.name',
            label: 'name',
            grounding: [{ tableId: 'league.clubs', columnId: 'club_name', kind: 'column-name', score: 0.9 }],
            value: { id: 'club.name.v', operator: '=', literal: 'AIB' },
          },
        ],
      },
      { entity: { id: 'player_club', label: 'player club', bridge: true }, attributes: [] },
      {
        entity: { id: 'game', label: 'game' },
        attributes: [
          { id: 'game.score', label: 'score' },
          { id: 'game.year', label: 'year', value: { id: 'game.year.v', operator: 'between', literal: [2010, 2020] } },
        ],
      },
    ],
    edges: [
      { id: 'e1', from: 'club', to: 'player_club' },
      { id: 'e2', from: 'player_club', to: 'game', label: 'played' },
    ],
  };
}

/** The BadInputError message of parsing `value`. */
function parseError(value: unknown): BadInputError {
  try {
    parseIntentGraph(value);
  } catch (err) {
    expect(err).toBeInstanceOf(BadInputError);
    return err as BadInputError;
  }
  throw new Error('expected parseIntentGraph to throw');
}

describe('parseIntentGraph', () => {
  it('accepts a valid graph, as a value or a JSON string', () => {
    const graph = goodGraph();
    expect(parseIntentGraph(graph)).toEqual(graph);
    expect(parseIntentGraph(JSON.stringify(graph))).toEqual(graph);
  });

  it('names the path of a bad operator and a missing label', () => {
    const graph = goodGraph() as unknown as { trees: { entity: Record<string, unknown>; attributes: { value?: Record<string, unknown> }[] }[] };
    graph.trees[0].attributes[0].value!.operator = '~=';
    delete graph.trees[2].entity.label;
    const err = parseError(graph);
    expect(err.code).toBe(ErrorCode.BAD_USER_INPUT);
    expect(err.message).toContain('trees[0].attributes[0].value.operator');
    expect(err.message).toContain('trees[2].entity.label');
    const paths = (err.details.issues as { path: string }[]).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['trees[0].attributes[0].value.operator', 'trees[2].entity.label']));
  });

  it('rejects duplicate ids across atom kinds and names both places', () => {
    const graph = goodGraph();
    graph.trees[2].attributes[0].id = 'club.name.v';
    const err = parseError(graph);
    expect(err.message).toMatch(/trees\[2\]\.attributes\[0\]\.id: duplicate id 'club\.name\.v' \(first used at trees\[0\]\.attributes\[0\]\.value\.id\)/);
  });

  it('rejects edges to unknown entities and self-loops', () => {
    const graph = goodGraph();
    graph.edges[0].to = 'stadium';
    graph.edges[1].from = 'game';
    const err = parseError(graph);
    expect(err.message).toContain("edges[0].to: unknown entity id 'stadium'");
    expect(err.message).toContain("edges[1]: self-loop on entity 'game'");
  });

  it('rejects an edge that points at an attribute rather than an entity', () => {
    const graph = goodGraph();
    graph.edges[0].to = 'club.name';
    expect(parseError(graph).message).toContain("edges[0].to: unknown entity id 'club.name'");
  });

  it('checks literal arity per operator', () => {
    const graph = goodGraph();
    graph.trees[2].attributes[1].value!.literal = [2010];
    graph.trees[0].attributes[0].value!.literal = ['AIB', 'Rovers'];
    const err = parseError(graph);
    expect(err.message).toContain("trees[2].attributes[1].value.literal: operator 'between' needs a [low, high] pair");
    expect(err.message).toContain("trees[0].attributes[0].value.literal: operator '=' needs a single string or number");
  });

  it('rejects other versions, unknown keys, empty forests and bad grounding', () => {
    const graph = goodGraph() as unknown as Record<string, unknown> & { trees: { entity: Record<string, unknown> }[] };
    graph.version = 2;
    graph.trees[0].entity.colour = 'red';
    (graph.trees[0].entity.grounding as Record<string, unknown>[])[0].kind = 'guess';
    const err = parseError(graph);
    expect(err.message).toContain('version');
    expect(err.message).toContain('trees[0].entity: Unrecognized key');
    expect(err.message).toContain('trees[0].entity.grounding[0].kind');
    expect(parseError({ version: 1, trees: [], edges: [] }).message).toContain('trees: an intent graph needs at least one entity tree');
  });

  it('reports malformed JSON text at the root', () => {
    expect(parseError('{"version": 1,').message).toMatch(/^invalid intent graph: \(root\): not valid JSON/);
  });
});

describe('intentGraphJsonSchema', () => {
  it('describes the stored graph for structured output', () => {
    const schema = intentGraphJsonSchema() as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(['version', 'trees', 'edges']);
    const text = JSON.stringify(schema);
    for (const op of ['"="', '"!="', '"like"', '"in"', '"between"']) expect(text).toContain(op);
    expect(text).toContain('"table-name"');
  });
});

describe('intentAtoms', () => {
  it('lists entities, attributes, values and relations with parents, in tree order', () => {
    const atoms = intentAtoms(parseIntentGraph(goodGraph()));
    expect(atoms.map((a) => `${a.kind}:${a.id}`)).toEqual([
      'entity:club',
      'attribute:club.name',
      'value:club.name.v',
      'entity:player_club',
      'entity:game',
      'attribute:game.score',
      'attribute:game.year',
      'value:game.year.v',
      'relation:e1',
      'relation:e2',
    ]);
    const byId = new Map(atoms.map((a) => [a.id, a]));
    expect(byId.get('club.name')!.parentIds).toEqual(['club']);
    expect(byId.get('club.name.v')).toMatchObject({ parentIds: ['club.name'], label: 'AIB', operator: '=', literal: 'AIB' });
    expect(byId.get('game.year.v')!.label).toBe('2010, 2020');
    expect(byId.get('e1')).toMatchObject({ parentIds: ['club', 'player_club'], label: 'club - player club' });
    expect(byId.get('e2')!.label).toBe('played');
    expect(byId.get('player_club')!.bridge).toBe(true);
    expect(byId.get('club.name')!.grounding[0]).toMatchObject({ columnId: 'club_name' });
    expect(byId.get('game')!.grounding).toEqual([]);
  });

  it('is stable: the same graph gives the same atoms', () => {
    expect(intentAtoms(goodGraph())).toEqual(intentAtoms(goodGraph()));
  });
});
