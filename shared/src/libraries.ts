// The router and the state libraries reach the parts through @collectif/shared, never directly.
// The shared package is one federated singleton, so each library is still loaded once on a page,
// and webpack keeps only what is listed here: shared as whole packages, react-router-dom and the
// Redux toolkit cost the visitor about twice as many bytes (measured in bench/, see README).
// A part that needs another export adds it here.
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
