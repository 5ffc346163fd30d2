import { listLakeEntries, profileEntry, fingerprintEntry, entryUri } from './src/lake/index.js';
const { entries, problems } = await listLakeEntries(process.argv[2]);
console.log(entries.length, problems);
let ok=0, bad=0;
for (const e of entries) { try { const p = await profileEntry(e); ok++; if (process.argv[3]) console.log(p.name, p.uri, p.rowCount, p.fingerprint, p.columns.map(c=>c.name+':'+c.logicalType).join(',')); } catch (err) { bad++; console.log('ERR', entryUri(e), (err as Error).message.slice(0,200)); } }
console.log({ok,bad});
