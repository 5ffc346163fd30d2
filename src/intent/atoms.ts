import type { Grounding, IntentGraph, ValueLiteral, ValueOperator } from './schema.js';

export type IntentAtomKind = 'entity' | 'attribute' | 'value' | 'relation';

/**
 * One matchable unit of an intent graph. Retrieval scores tables against atoms, so every atom
 * carries its label text and where it hangs: an attribute's parent is its entity, a value's is
 * its attribute, a relation's are the two entities it joins.
 */
export interface IntentAtom {
  /** The node or edge id from the graph (stable: the same graph gives the same ids). */
  id: string;
  kind: IntentAtomKind;
  /** Text to match: the node label, the rendered literal, or the edge label / "from - to". */
  label: string;
  parentIds: string[];
  grounding: Grounding[];
  /** Value atoms only. */
  operator?: ValueOperator;
  literal?: ValueLiteral;
  /** Entity atoms only: an entity the question does not name. */
  bridge?: boolean;
}

/** Flatten a graph into atoms, in tree order (entity, its attributes, their values), then edges. */
export function intentAtoms(graph: IntentGraph): IntentAtom[] {
  const atoms: IntentAtom[] = [];
  const entityLabel = new Map<string, string>();
  for (const tree of graph.trees) {
    const { entity } = tree;
    entityLabel.set(entity.id, entity.label);
    atoms.push({
      id: entity.id,
      kind: 'entity',
      label: entity.label,
      parentIds: [],
      grounding: entity.grounding ?? [],
      ...(entity.bridge ? { bridge: true } : {}),
    });
    for (const attr of tree.attributes) {
      atoms.push({
        id: attr.id,
        kind: 'attribute',
        label: attr.label,
        parentIds: [entity.id],
        grounding: attr.grounding ?? [],
      });
      if (attr.value) {
        atoms.push({
          id: attr.value.id,
          kind: 'value',
          label: renderLiteral(attr.value.literal),
          parentIds: [attr.id],
          grounding: attr.value.grounding ?? [],
          operator: attr.value.operator,
          literal: attr.value.literal,
        });
      }
    }
  }
  for (const edge of graph.edges) {
    atoms.push({
      id: edge.id,
      kind: 'relation',
      label: edge.label ?? `${entityLabel.get(edge.from) ?? edge.from} - ${entityLabel.get(edge.to) ?? edge.to}`,
      parentIds: [edge.from, edge.to],
      grounding: [],
    });
  }
  return atoms;
}

/** Literal text for matching: lists join with ", ", `like` wildcards are dropped. */
export function renderLiteral(literal: ValueLiteral): string {
  if (Array.isArray(literal)) return literal.map((v) => renderLiteral(v)).join(', ');
  return typeof literal === 'number' ? String(literal) : literal.replace(/^%|%$/g, '');
}
