// Testing Library's DOM matchers (toBeInTheDocument, toHaveAttribute, …) for every browser part.
import '@testing-library/jest-dom';
