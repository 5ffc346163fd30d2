import { BadInputError } from '../util/errors.js';
import type { ExecutionProvider } from './loader.js';

export interface ValueConfig {
  /** 'auto': use the newest learned model trained on this lake when there is one; 'off': heuristic only. */
  valueModel: 'auto' | 'off';
  provider: ExecutionProvider;
}

/** GRAFT_VALUE_MODEL (auto | off) and GRAFT_VALUE_PROVIDER (cpu | cuda), as `graft ask` and `graft serve` read them. */
export function valueConfigFromEnv(env: NodeJS.ProcessEnv): ValueConfig {
  const valueModel = env.GRAFT_VALUE_MODEL ?? 'auto';
  if (valueModel !== 'auto' && valueModel !== 'off') throw new BadInputError(`GRAFT_VALUE_MODEL must be auto or off (got "${valueModel}")`, { field: 'GRAFT_VALUE_MODEL' });
  const provider = env.GRAFT_VALUE_PROVIDER ?? 'cpu';
  if (provider !== 'cpu' && provider !== 'cuda') throw new BadInputError(`GRAFT_VALUE_PROVIDER must be cpu or cuda (got "${provider}")`, { field: 'GRAFT_VALUE_PROVIDER' });
  return { valueModel, provider };
}
