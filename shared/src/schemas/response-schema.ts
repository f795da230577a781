import type { GenericSchema, StandardProps } from 'valibot';

/**
 * An answer's schema as RTK Query's `responseSchema` takes it. RTK types a schema by its output only;
 * ours accept any input (they read what the network gave), which is what the cast forgets. The
 * singleton's slice and the endpoints a part injects into it (docs/contract.md, « 4.0.0 ») read
 * their answers through it alike.
 */
export function responseSchema<T>(schema: GenericSchema<unknown, T>): { readonly '~standard': StandardProps<T, T> } {
  return schema as unknown as { readonly '~standard': StandardProps<T, T> };
}
