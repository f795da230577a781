import {
  Component,
  createContext,
  Suspense,
  use,
  useContext,
  useEffect,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { type RemoteModuleRef } from '@collectif/shared';
import { loadRemoteModule, resetRemote, type LoadedModule } from './remotes';
import { announceInteractive } from '../boot/interactive';
import { StatusMessage } from '@collectif/shared/ui';

interface BoundaryProps {
  label: string;
  onRetry: () => void;
  /** The area's name for the page's loader: its fallback's « Réessayer » is interactive once shown. */
  zone?: string | undefined;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
}

/** Keeps a remote's failure inside its own area: the rest of the page keeps working. */
class RemoteBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Module « ${this.props.label} » indisponible`, error, info.componentStack);
  }

  override componentDidMount(): void {
    this.announceFallback();
  }

  override componentDidUpdate(): void {
    this.announceFallback();
  }

  /** The fallback is React's, its button has its handler: the page's loader must let taps through. */
  private announceFallback(): void {
    if (this.state.failed && this.props.zone !== undefined) announceInteractive(this.props.zone);
  }

  private readonly retry = () => {
    this.setState({ failed: false });
    this.props.onRetry();
  };

  override render() {
    if (this.state.failed) {
      return (
        <StatusMessage kind="error" onRetry={this.retry}>
          {`${this.props.label} est momentanément indisponible. Réessayez dans un instant.`}
        </StatusMessage>
      );
    }
    return this.props.children;
  }
}

/** One load per exposed module and attempt, so route changes never reload a remote. */
const loads = new Map<string, { attempt: number; promise: Promise<LoadedModule> }>();

function keyOf(ref: RemoteModuleRef): string {
  return `${ref.remote}/${ref.module}`;
}

function currentAttempt(ref: RemoteModuleRef): number {
  return loads.get(keyOf(ref))?.attempt ?? 0;
}

export function load(ref: RemoteModuleRef, attempt = currentAttempt(ref)): Promise<LoadedModule> {
  const cached = loads.get(keyOf(ref));
  if (cached?.attempt === attempt) return cached.promise;
  const promise = loadRemoteModule(ref);
  loads.set(keyOf(ref), { attempt, promise });
  return promise;
}

/**
 * Warms a remote module (on hover or focus of a link) so that the next navigation is instant. The
 * promise it returns settles, never rejects, once the module is loaded or has failed.
 */
export function prefetchRemote(ref: RemoteModuleRef): Promise<void> {
  const promise = load(ref, currentAttempt(ref));
  return promise.then(
    () => undefined,
    () => {
      // A failed prefetch is not an error, and must not stand for the visit: forget it, so that
      // opening the page tries again.
      if (loads.get(keyOf(ref))?.promise === promise) loads.delete(keyOf(ref));
    },
  );
}

/**
 * On the server, the modules the page renders, already loaded from the parts' server containers
 * (keyed `remote/Module`). Empty in the browser, where modules come through federation.
 */
export const ServerModulesContext = createContext<ReadonlyMap<string, ComponentType>>(new Map());

/**
 * A module missing on the server (its part has no server container, or it failed to load) is thrown
 * for: React then sends the area's fallback and renders that area in the browser (docs/rendering.md).
 */
class ServerRenderSkipped extends Error {
  constructor(key: string) {
    super(`Rendu serveur indisponible pour ${key} : la zone sera rendue dans le navigateur`);
  }
}

function Loaded({ reference, attempt, zone }: { reference: RemoteModuleRef; attempt: number; zone?: string }) {
  // Its controls have their handlers once this has run: hydrated, or rendered here.
  useEffect(() => {
    if (zone !== undefined) announceInteractive(zone);
  }, [zone]);
  const serverModule = useContext(ServerModulesContext).get(keyOf(reference));
  if (serverModule === undefined && typeof window === 'undefined') throw new ServerRenderSkipped(keyOf(reference));
  // In the browser the module is loaded once per attempt and cached above. During hydration the
  // server's HTML stays in place until it arrives (selective hydration).
  const Page = serverModule ?? use(load(reference, attempt)).default;
  // Page is the remote's own component, loaded once and cached, not made here.
  // eslint-disable-next-line react-hooks/static-components
  return <Page />;
}

type RemoteAreaProps = RemoteModuleRef & {
  /** How the area is named in its fallback, e.g. « La page d'accueil ». */
  label: string;
  /** What shows while loading; the player area keeps its place with a quiet placeholder. */
  loading?: ReactNode;
  /** The area's name for the page's loader (`data-zone` of its element), told once it is interactive. */
  zone?: string;
};

export function RemoteArea({ label, loading, zone, ...ref }: RemoteAreaProps) {
  const [attempt, setAttempt] = useState(() => currentAttempt(ref));
  return (
    <RemoteBoundary
      label={label}
      zone={zone}
      onRetry={() => {
        // A remote that loaded but failed to render is cached by the federation runtime: forget it,
        // so that a fixed deployment is fetched anew.
        resetRemote(ref.remote);
        setAttempt((a) => a + 1);
      }}
    >
      <Suspense fallback={loading ?? <StatusMessage kind="loading">Chargement ...</StatusMessage>}>
        <Loaded reference={ref} attempt={attempt} {...(zone === undefined ? {} : { zone })} />
      </Suspense>
    </RemoteBoundary>
  );
}
