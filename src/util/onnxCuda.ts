import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';

/**
 * Why onnxruntime's CUDA execution provider cannot work here, or null if it may. The npm
 * package's CPU build lists 'cuda' but ships no provider library; trying anyway makes the native
 * runtime print an error of its own, so check for the library first and keep the fallback to the
 * caller's one warning line. Shared by the ONNX embedder and the value network's scorer.
 */
export function cudaUnavailableReason(ort: typeof Ort): string | null {
  const backends = (ort as { listSupportedBackends?: () => { name: string }[] }).listSupportedBackends?.();
  if (backends && !backends.some((b) => b.name === 'cuda')) return 'not supported by this onnxruntime-node build';
  try {
    const require = createRequire(import.meta.url);
    const root = path.dirname(require.resolve('onnxruntime-node/package.json'));
    const binDir = path.join(root, 'bin', 'napi-v6', process.platform, process.arch);
    const library = path.join(binDir, 'libonnxruntime_providers_cuda.so');
    if (process.platform === 'linux' && existsSync(binDir) && !existsSync(library)) {
      return 'onnxruntime-node was installed without the CUDA provider library';
    }
  } catch {
    // Layout unknown: just try CUDA and fall back on failure.
  }
  return null;
}
