import CodeOutlined from '@ant-design/icons-svg/es/asn/CodeOutlined';
import FileExcelOutlined from '@ant-design/icons-svg/es/asn/FileExcelOutlined';
import FileImageOutlined from '@ant-design/icons-svg/es/asn/FileImageOutlined';
import FileMarkdownOutlined from '@ant-design/icons-svg/es/asn/FileMarkdownOutlined';
import FileOutlined from '@ant-design/icons-svg/es/asn/FileOutlined';
import FilePdfOutlined from '@ant-design/icons-svg/es/asn/FilePdfOutlined';
import FileTextOutlined from '@ant-design/icons-svg/es/asn/FileTextOutlined';
import FileWordOutlined from '@ant-design/icons-svg/es/asn/FileWordOutlined';
import FileZipOutlined from '@ant-design/icons-svg/es/asn/FileZipOutlined';
import FolderOutlined from '@ant-design/icons-svg/es/asn/FolderOutlined';
import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import SoundOutlined from '@ant-design/icons-svg/es/asn/SoundOutlined';
import TableOutlined from '@ant-design/icons-svg/es/asn/TableOutlined';
import VideoCameraOutlined from '@ant-design/icons-svg/es/asn/VideoCameraOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { Icon } from '../../ui/Icon/index.ts';
import type { FileIconName } from '../preview/registry.ts';

const icons: Record<FileIconName | 'folder', IconDefinition> = {
  text: FileTextOutlined,
  image: FileImageOutlined,
  video: VideoCameraOutlined,
  audio: SoundOutlined,
  doc: FileWordOutlined,
  markdown: FileMarkdownOutlined,
  web: GlobalOutlined,
  code: CodeOutlined,
  table: TableOutlined,
  pdf: FilePdfOutlined,
  archive: FileZipOutlined,
  sheet: FileExcelOutlined,
  file: FileOutlined,
  folder: FolderOutlined,
};

/** A file kind's (or a folder's) icon, an SVG from the console's one icon library. */
export function FileIcon({ name }: { name: FileIconName | 'folder' }) {
  return <Icon icon={icons[name]} />;
}
