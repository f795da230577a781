import { siteConfig, type RemoteContract } from '@collectif/shared';

function AboutPage() {
  return (
    <div className="page">
      <h1>{`${siteConfig.name} À Propos`}</h1>
    </div>
  );
}

export default AboutPage satisfies RemoteContract['about']['AboutPage'];
