// The router and the state libraries reach the parts through @collectif/shared, never directly.
// The shared package is one federated singleton, so each library is still loaded once on a page,
// and webpack keeps only what is listed here: shared as whole packages, react-router-dom and the
// Redux toolkit cost the visitor about twice as many bytes (measured in bench/, see README).
// These exports are part of the shared singleton, so adding one is a change of the contract: a minor
// version (shared/package.json `version`, 2.5.0 → 2.6.0, and its line in docs/contract.md), the
// shell deployed first, then the parts that use it, which the deploy refuses until then (docs/parts.md,
// « The contract's versions »). Code that holds no state of its own is not added to the singleton at
// all: it is a helper, on a path of its own that each part bundles (docs/parts.md, « Singletons and
// helpers »).
export {
  createBrowserRouter,
  data,
  Link,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
  type HydrationState,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router-dom';
export {
  createAction,
  createSlice,
  isAnyOf,
  TaskAbortError,
  type PayloadAction,
  type UnknownAction,
  type WithSlice,
} from '@reduxjs/toolkit';
export { Provider as StoreProvider } from 'react-redux';
