import type { RemoteContract } from '@collectif/shared';

function ResidencesPage() {
  return (
    <div className="page">
      <h1>Résidences</h1>
    </div>
  );
}

export default ResidencesPage satisfies RemoteContract['radio']['ResidencesPage'];
