export { describe, escapeHtml, headTags, scriptJson, type HeadImage, type PageHead } from './head';
export {
  isoDuration,
  missingProperties,
  musicAlbums,
  organization,
  radioEpisode,
  radioSeries,
  radioStation,
  REQUIRED_PROPERTIES,
  type AlbumInput,
  type EpisodeInput,
  type EpisodePageInput,
  type OrganizationInput,
  type RadioSeriesInput,
  type RadioStationInput,
} from './jsonLd';
