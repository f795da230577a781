import * as v from 'valibot';

/**
 * A list answer as the client reads it: items that do not fit are dropped; a list that had items
 * but none usable is a broken answer, not an empty one.
 */
export function usableList<T>(item: v.GenericSchema<unknown, T>) {
  return v.pipe(
    v.array(v.unknown()),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const items = dataset.value.flatMap((value) => {
        const read = v.safeParse(item, value);
        return read.success ? [read.output] : [];
      });
      if (items.length === 0 && dataset.value.length > 0) {
        addIssue({ message: 'aucun élément utilisable dans la liste' });
        return NEVER;
      }
      return items;
    }),
  );
}
