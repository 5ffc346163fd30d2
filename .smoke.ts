import { OfflineExtractor } from './src/intent/offline-extractor.js';
import { schoolLake } from './test/intent/fixtures/school-lake.js';
const x = new OfflineExtractor(schoolLake());
for (const q of [
  "Which students in the Computer Science department have GPA above 3.5?",
  "List the names of players and the clubs they play for",
  "What scores did players of club AIB get in games?",
  "Which pupils enrolled after 2019?",
  "Find courses with the word 'Data' in their title",
  "How many unicorns live in Narnia?",
  "",
  "Show the first name and last name of students who enrolled between 2015 and 2018, ordered by GPA",
  "Which games against 'Shelbourne' had a score of at least 3?",
]) {
  const r = x.extract(q);
  console.log('\n#', q);
  for (const t of r.graph.trees) {
    console.log(` ${t.entity.id} [${t.entity.label}] ${JSON.stringify(t.entity.grounding?.map(g=>`${g.tableId}:${g.kind}:${g.score}`))}`);
    for (const a of t.attributes) console.log(`   ${a.id} [${a.label}] ${JSON.stringify(a.grounding?.map(g=>`${g.tableId}.${g.columnId}:${g.kind}:${g.score}`))} ${a.value ? JSON.stringify(a.value) : ''}`);
  }
  console.log(' edges', r.graph.edges.map(e=>e.id).join(', '), ' warnings', r.warnings);
}
for (const q of ['Which clubs were founded in 1950?', 'How many players are older than 30?', 'List games from 2019', 'Which students scored above 90?']) {
  const r = x.extract(q);
  console.log('\n#', q, JSON.stringify(r.graph.trees.map(t => [t.entity.label, t.attributes.map(a => [a.label, a.grounding?.[0]?.columnId, a.value?.operator, a.value?.literal])])), r.warnings);
}
