import { emit, usePodcastsQuery, type RemoteContract } from '@collectif/shared';

function HomePage() {
  const { data = [] } = usePodcastsQuery({ limit: 8 });
  return (
    <div className="page">
      <h1>Derniers podcasts</h1>
      <ul>
        {data.map((item) => (
          <li key={item.link}>
            <button type="button" onClick={() => emit('replay-selected', item)}>
              {item.title}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default HomePage satisfies RemoteContract['radio']['HomePage'];
