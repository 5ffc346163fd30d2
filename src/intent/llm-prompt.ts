import { llmIntentGraphJsonSchema, toLlmShape } from './llm-schema.js';
import { INTENT_SCHEMA_VERSION, type IntentGraph } from './schema.js';

/**
 * The intent-extraction prompt, in the four blocks of the GRAFT paper: task, output schema,
 * constraints, worked examples. Block headers are fixed strings so tests (and logs) can find them.
 */
export const PROMPT_BLOCK_HEADERS = {
  task: '## 1. Task',
  schema: '## 2. Output JSON schema',
  constraints: '## 3. Constraints',
  examples: '## 4. Examples',
} as const;

const TASK = `You turn an analytical question over a data lake into an intent graph: the entities the
question is about, the attributes it reads or filters on, the values it constrains them with, and
how the entities connect. The graph is later matched against table and column names, so use the
words of the question (singular nouns) as labels; you do not know the lake's tables.

An intent graph is a forest. Each tree has an entity at its root (a real-world thing, usually one
table: student, club, game). Its children are attributes of that entity (a column: name, GPA,
score). An attribute may carry one value leaf: an operator and a literal that constrain it.
Cross-tree edges say which entities are related and must be joined.`;

const CONSTRAINTS = `- Use only entities and attributes the question states or clearly implies; do not add columns
  "that might be useful". Aggregations (count, average, maximum) and ordering are not attributes
  themselves: keep the attribute they apply to.
- An entity the question never names, but which is needed to connect two entities it does name
  (typically a mapping or membership table), is a bridge: give it its own tree with
  "bridge": true, and connect the named entities through it with edges.
- Put every constant of the question (quoted strings, names, numbers, years) in a value leaf under
  the attribute it constrains, with an operator from: =, !=, <, <=, >, >=, like, in, between.
  "like" takes a pattern with % wildcards; "in" takes a list; "between" takes [low, high].
- Every tree has exactly one entity; attributes may be an empty list; "value" is null when the
  attribute is not constrained.
- Ids are unique across all entities, attributes, values and edges. Use readable ids: the entity
  label, "entity.attribute" for attributes, "entity.attribute.v" for values.
- Edges go between entity ids of different trees (never to itself); "label" names the
  relationship or is null. With two or more trees, every tree is connected by edges.
- Answer with the JSON object only.`;

/** The three worked examples: one tree with a value, two trees with an edge, a bridge. */
export const PROMPT_EXAMPLES: { question: string; graph: IntentGraph }[] = [
  {
    question: 'Which students in the Computer Science department have GPA above 3.5?',
    graph: {
      version: INTENT_SCHEMA_VERSION,
      trees: [
        {
          entity: { id: 'student', label: 'student' },
          attributes: [
            {
              id: 'student.department',
              label: 'department',
              value: { id: 'student.department.v', operator: '=', literal: 'Computer Science' },
            },
            { id: 'student.gpa', label: 'GPA', value: { id: 'student.gpa.v', operator: '>', literal: 3.5 } },
          ],
        },
      ],
      edges: [],
    },
  },
  {
    question: 'List the names of players and the clubs they play for',
    graph: {
      version: INTENT_SCHEMA_VERSION,
      trees: [
        { entity: { id: 'player', label: 'player' }, attributes: [{ id: 'player.name', label: 'name' }] },
        { entity: { id: 'club', label: 'club' }, attributes: [{ id: 'club.name', label: 'name' }] },
      ],
      edges: [{ id: 'player-club', from: 'player', to: 'club', label: 'plays for' }],
    },
  },
  {
    question: 'What scores did players of club AIB get in games?',
    graph: {
      version: INTENT_SCHEMA_VERSION,
      trees: [
        {
          entity: { id: 'club', label: 'club' },
          attributes: [{ id: 'club.name', label: 'name', value: { id: 'club.name.v', operator: '=', literal: 'AIB' } }],
        },
        { entity: { id: 'player_club', label: 'player club membership', bridge: true }, attributes: [] },
        { entity: { id: 'game', label: 'game' }, attributes: [{ id: 'game.score', label: 'score' }] },
      ],
      edges: [
        { id: 'club-player_club', from: 'club', to: 'player_club', label: 'has players' },
        { id: 'player_club-game', from: 'player_club', to: 'game', label: 'players played' },
      ],
    },
  },
];

/** The system message: all four blocks. */
export function buildSystemPrompt(): string {
  const examples = PROMPT_EXAMPLES.map(
    (ex, i) => `Example ${i + 1}\nQuestion: ${ex.question}\nOutput:\n${JSON.stringify(toLlmShape(ex.graph))}`,
  ).join('\n\n');
  return [
    `${PROMPT_BLOCK_HEADERS.task}\n${TASK}`,
    `${PROMPT_BLOCK_HEADERS.schema}\n${JSON.stringify(llmIntentGraphJsonSchema())}`,
    `${PROMPT_BLOCK_HEADERS.constraints}\n${CONSTRAINTS}`,
    `${PROMPT_BLOCK_HEADERS.examples}\n${examples}`,
  ].join('\n\n');
}

/** The user message: the question. */
export function buildUserPrompt(question: string): string {
  return `Question: ${question}\nOutput:`;
}
