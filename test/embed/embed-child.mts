// Child process for the cross-process determinism test: prints each vector's bytes as base64.
import { HashedNgramEmbedder } from '../../src/embed/index.js';

const texts = JSON.parse(process.argv[2]) as string[];
const vectors = await new HashedNgramEmbedder().embed(texts);
process.stdout.write(JSON.stringify(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'))));
