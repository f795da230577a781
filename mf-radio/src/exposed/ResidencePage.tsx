import { useParams } from 'react-router-dom';
import { selectFeedLoaded, useAppSelector, type RemoteContract } from '@collectif/shared';

function ResidencePage() {
  const { id = '' } = useParams();
  const loaded = useAppSelector(selectFeedLoaded);
  return (
    <div className="page">
      <h1>{`Résidence ${id}`}</h1>
      <p>{loaded ? 'Flux chargé' : 'Flux non chargé'}</p>
    </div>
  );
}

export default ResidencePage satisfies RemoteContract['radio']['ResidencePage'];
