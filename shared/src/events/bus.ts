import { domEventName, eventBehaviour, type EventMap, type EventName } from './contract';

type Handler<K extends EventName> = (payload: EventMap[K]) => void;

/** Last payloads live on the window so that every copy of this module on a page agrees. */
const LAST_KEY = Symbol.for('collectif.events.last');
/** So do the subscribers' counts and the requests kept until heard. */
const HEARD_KEY = Symbol.for('collectif.events.heard');

interface Heard {
  listeners: Map<EventName, number>;
  /** Per group, the request emitted while nobody listened. */
  held: Map<string, { name: EventName; payload: unknown }>;
  /** Per event kept in order (`heldInOrder`), every request emitted while nobody listened. */
  heldLists?: Map<EventName, unknown[]>;
}

const carrier = globalThis as { [LAST_KEY]?: Map<EventName, unknown>; [HEARD_KEY]?: Heard };

function heard(): Heard & { heldLists: Map<EventName, unknown[]> } {
  let value = carrier[HEARD_KEY];
  if (value === undefined) {
    value = { listeners: new Map(), held: new Map() };
    carrier[HEARD_KEY] = value;
  }
  // A page may already carry the record of an older copy of this module, without the lists.
  value.heldLists ??= new Map();
  return value as Heard & { heldLists: Map<EventName, unknown[]> };
}

function target(): EventTarget {
  return globalThis;
}

function lastValues(): Map<EventName, unknown> {
  let values = carrier[LAST_KEY];
  if (values === undefined) {
    values = new Map();
    carrier[LAST_KEY] = values;
  }
  return values;
}

/**
 * Emits `name` to every subscriber, React or not. An event declared `once` is emitted at most once
 * per page load; returns whether it was emitted.
 */
export function emit<K extends EventName>(name: K, payload: EventMap[K]): boolean {
  // Events belong to a page: the server, rendering one, has no listeners and no page to speak to.
  if (typeof window === 'undefined') return false;
  const behaviour = eventBehaviour[name];
  const last = lastValues();
  if (behaviour.once && last.has(name)) return false;
  if (behaviour.replayLast || behaviour.once) last.set(name, payload);
  const group = behaviour.heldUntilHeard;
  if (group !== undefined) {
    const { listeners, held, heldLists } = heard();
    const unheard = (listeners.get(name) ?? 0) === 0;
    if (behaviour.heldInOrder !== undefined) {
      if (unheard) {
        const list = heldLists.get(name) ?? [];
        if (list.length < behaviour.heldInOrder) list.push(payload);
        heldLists.set(name, list);
      }
    } else if (unheard) held.set(group, { name, payload });
    else held.delete(group);
  }
  target().dispatchEvent(new CustomEvent(domEventName(name), { detail: payload }));
  return true;
}

/**
 * Subscribes to `name`; returns the function that unsubscribes. For events that replay their last
 * payload, a late subscriber is called at once (synchronously) with it; so is the first subscriber
 * to a request kept until heard.
 */
export function on<K extends EventName>(name: K, handler: Handler<K>): () => void {
  const listener = (event: Event) => {
    handler((event as CustomEvent<EventMap[K]>).detail);
  };
  target().addEventListener(domEventName(name), listener);
  const { listeners, held } = heard();
  listeners.set(name, (listeners.get(name) ?? 0) + 1);
  const last = lastValues();
  if (eventBehaviour[name].replayLast && last.has(name)) {
    handler(last.get(name) as EventMap[K]);
  }
  const behaviour = eventBehaviour[name];
  const group = behaviour.heldUntilHeard;
  if (group !== undefined && behaviour.heldInOrder !== undefined) {
    const { heldLists } = heard();
    const requests = heldLists.get(name) ?? [];
    heldLists.delete(name);
    for (const payload of requests) handler(payload as EventMap[K]);
  } else {
    const request = group === undefined ? undefined : held.get(group);
    if (group !== undefined && request?.name === name) {
      held.delete(group);
      handler(request.payload as EventMap[K]);
    }
  }
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    listeners.set(name, (listeners.get(name) ?? 1) - 1);
    target().removeEventListener(domEventName(name), listener);
  };
}

/** The last payload of a replaying event, if any. */
export function lastPayload<K extends EventName>(name: K): EventMap[K] | undefined {
  return lastValues().get(name) as EventMap[K] | undefined;
}

/** Forgets every last payload; for tests that need a fresh page. */
export function resetEvents(): void {
  lastValues().clear();
  heard().held.clear();
  heard().heldLists.clear();
}
