import {
  INCIDENT_STATE_TEXTS,
  LOGBOOK_DATA_SCHEMAS,
  ROOT_CAUSE_TEXTS,
  auditResultText,
  commandText,
  firmwareReasonText,
  localized,
  pickText,
  refusalText,
  type LocalizedText,
  type LogbookEntry,
  type LogbookKind,
  type LogbookProblem,
} from '@liftlink/protocol';
import { fill } from '../../lib/pdf.ts';

/**
 * The words of the logbook's PDF export in the three languages. An entry's line says what
 * the web's Logbook tab says of it (apps/web lift-detail/model/logbook-summary.ts, the
 * `logbook.*` texts of the lifts locale bundles): the same wording, written by the server.
 */
export const PDF_TEXTS = {
  title: localized('设备日志簿', 'Lift logbook', 'Журнал лифта'),
  deviceNo: localized('设备号', 'Device number', 'Номер устройства'),
  alias: localized('别名', 'Alias', 'Название'),
  kind: localized('类型', 'Kind', 'Тип'),
  maker: localized('制造商', 'Manufacturer', 'Производитель'),
  operator: localized('运营方', 'Operator', 'Эксплуатирующая организация'),
  none: localized('无', 'none', 'нет'),
  range: localized('时间范围', 'Range', 'Период'),
  allTime: localized('全部', 'all entries', 'все записи'),
  since: localized('自 {from} 起', 'from {from}', 'с {from}'),
  until: localized('至 {to} 前', 'before {to}', 'до {to}'),
  kinds: localized('类别', 'Kinds', 'Виды'),
  allKinds: localized('全部类别', 'all kinds', 'все виды'),
  exported: localized('导出时间', 'Exported', 'Выгружено'),
  exportedBy: localized('{at}，导出人 {name}', '{at} by {name}', '{at}, выгрузил(а) {name}'),
  timeZone: localized('时区', 'Time zone', 'Часовой пояс'),
  entries: localized('条目数', 'Entries', 'Записей'),
  verification: localized('链校验', 'Chain verification', 'Проверка цепочки'),
  ok: localized('链完整：已校验 {checked} 条，无修改、删除或重排', 'Chain intact: {checked} entries checked, none changed, removed or reordered', 'Цепочка цела: проверено записей — {checked}, ни одна не изменена, не удалена и не переставлена'),
  okEmpty: localized('日志簿尚无条目：无需校验', 'The logbook has no entries yet: nothing to check', 'В журнале ещё нет записей: проверять нечего'),
  broken: localized('链在第 {seq} 条处断开', 'Chain broken at entry No. {seq}', 'Цепочка нарушена на записи № {seq}'),
  checkedBefore: localized('其之前的 {checked} 条完好。', 'The {checked} entries before it are intact.', 'Записи до неё ({checked}) целы.'),
  head: localized('最后一条序号 {seq}，哈希 {hash}。', 'Last entry No. {seq}, hash {hash}.', 'Последняя запись № {seq}, хеш {hash}.'),
  brokenMark: localized('链在此断开', 'chain broken here', 'здесь цепочка нарушена'),
  seq: localized('序号', 'No.', '№'),
  time: localized('时间', 'Time', 'Время'),
  kindColumn: localized('类别', 'Kind', 'Вид'),
  actor: localized('操作人', 'By', 'Кто'),
  summary: localized('内容', 'What happened', 'Что произошло'),
  hash: localized('哈希', 'Hash', 'Хеш'),
  system: localized('设备或系统', 'Lift or system', 'Лифт или система'),
  someone: localized('其他用户', 'another user', 'другой пользователь'),
  empty: localized('没有符合条件的条目', 'No entries in this range', 'Нет записей за этот период'),
  page: localized('第 {page} / {pages} 页', 'Page {page} of {pages}', 'Страница {page} из {pages}'),
  hashNote: localized(
    '哈希取前 12 位；完整哈希及可重新计算链的全部字段见 CSV 导出。',
    'Hashes are shortened to their first 12 characters; the CSV export holds them in full, with every field the chain is computed from.',
    'Хеши сокращены до первых 12 символов; экспорт в CSV содержит их полностью вместе со всеми полями, по которым считается цепочка.',
  ),
} as const satisfies Record<string, LocalizedText>;

export const PROBLEM_TEXTS: Record<LogbookProblem, LocalizedText> = {
  altered: localized('该条目写入后被修改：其内容与哈希不符。', 'This entry was changed after it was written: its content no longer matches its hash.', 'Запись изменена после внесения: её содержимое не соответствует хешу.'),
  unlinked: localized(
    '该条目与前一条不再链接：之前的条目被改写，或该条目位于已记录的最后一条之后。',
    'This entry no longer links to the one before it: an earlier entry was rewritten, or the entry lies beyond the last one recorded.',
    'Запись больше не связана с предыдущей: более ранняя запись переписана, или запись лежит дальше последней учтённой.',
  ),
  missing: localized('该条目缺失：已从日志簿中删除。', 'This entry is missing: it was removed from the logbook.', 'Записи нет: она удалена из журнала.'),
};

export const KIND_TEXTS: Record<LogbookKind, LocalizedText> = {
  command: localized('命令', 'Command', 'Команда'),
  config: localized('配置', 'Configuration', 'Конфигурация'),
  credential: localized('凭据', 'Credential', 'Учётные данные'),
  lease: localized('远程控制', 'Remote control', 'Удалённое управление'),
  approval: localized('审批', 'Approval', 'Согласование'),
  incident: localized('故障事件', 'Incident', 'Инцидент'),
  visit: localized('维保上门', 'Maintenance visit', 'Техобслуживание'),
  firmware: localized('固件', 'Firmware', 'Прошивка'),
};

export const DEVICE_KIND_TEXTS: Record<string, LocalizedText> = {
  inclinedStraightRack: localized('斜挂直齿条式', 'Inclined straight rack lift', 'Наклонный подъёмник с прямой рейкой'),
  inclined2dRack: localized('斜挂二维齿条式', 'Inclined two-dimensional rack lift', 'Наклонный двумерный реечный подъёмник'),
  inclined2dSprocket: localized('斜挂二维链轮式', 'Inclined two-dimensional sprocket lift', 'Наклонный двумерный цепной подъёмник'),
  inclined3dSprocket: localized('斜挂三维链轮式', 'Inclined three-dimensional sprocket lift', 'Наклонный трёхмерный цепной подъёмник'),
  verticalHydraulic: localized('垂直液压式', 'Vertical hydraulic lift', 'Вертикальный гидравлический подъёмник'),
};

const LINES = {
  command: localized('{command}：{outcome}', '{command}: {outcome}', '{command}: {outcome}'),
  commandWhy: localized('{command}：{outcome}（{reason}）', '{command}: {outcome} ({reason})', '{command}: {outcome} ({reason})'),
  approvedBy: localized('由 {name} 批准', 'approved by {name}', 'согласовал(а) {name}'),
  configSet: localized('下发配置', 'Send configuration', 'Запись конфигурации'),
  configCloud: localized('配置版本 {before} → {after}，由云端下发', 'Configuration version {before} → {after}, sent from the cloud', 'Версия конфигурации {before} → {after}, отправлена из облака'),
  configDevice: localized('配置版本 {before} → {after}，在设备上设置', 'Configuration version {before} → {after}, set on the lift', 'Версия конфигурации {before} → {after}, задана на лифте'),
  credentialIssued: localized('为 {deviceNo} 签发新的物联网密钥', 'New IoT secret issued for {deviceNo}', 'Выдан новый секрет IoT для {deviceNo}'),
  credentialRevoked: localized('{deviceNo} 的物联网密钥已吊销', 'IoT secret of {deviceNo} revoked', 'Секрет IoT для {deviceNo} отозван'),
  leaseTaken: localized('取得远程控制', 'Remote control taken', 'Удалённое управление взято'),
  leaseTakenOver: localized('从 {previous} 接管远程控制', 'Remote control taken over from {previous}', 'Удалённое управление перехвачено у пользователя {previous}'),
  leaseReleased: localized('释放远程控制', 'Remote control released', 'Удалённое управление освобождено'),
  leaseEndedByLocalUse: localized('{previous} 的远程控制因现场操作而结束', 'Remote control of {previous} ended by use on site', 'Удалённое управление пользователя {previous} завершено из-за работы на месте'),
  approvalRequested: localized('申请审批：{command}', 'Approval requested: {command}', 'Запрошено согласование: {command}'),
  approvalRequestedWhy: localized('申请审批：{command}（{reason}）', 'Approval requested: {command} ({reason})', 'Запрошено согласование: {command} ({reason})'),
  approvalApproved: localized('已批准：{command}', 'Approved: {command}', 'Согласовано: {command}'),
  approvalRejected: localized('已拒绝：{command}', 'Refused: {command}', 'Отклонено: {command}'),
  approvalWithdrawn: localized('已撤回审批申请：{command}', 'Approval request withdrawn: {command}', 'Запрос согласования отозван: {command}'),
  incidentOpened: localized('事件 #{id} 已创建（{state}）', 'Incident #{id} opened ({state})', 'Инцидент № {id} открыт ({state})'),
  incidentChanged: localized('事件 #{id}：{from} → {to}', 'Incident #{id}: {from} → {to}', 'Инцидент № {id}: {from} → {to}'),
  incidentPhoto: localized('事件 #{id}：新增照片（{type}，{size}，SHA-256 {sha}）', 'Incident #{id}: photo added ({type}, {size}, SHA-256 {sha})', 'Инцидент № {id}: добавлено фото ({type}, {size}, SHA-256 {sha})'),
  rootCause: localized('根本原因：{cause}', 'root cause: {cause}', 'причина: {cause}'),
  parts: localized('使用配件：{parts}', 'parts used: {parts}', 'запчасти: {parts}'),
  visit: localized('维保上门 #{id}：检查 {checked} 项，不合格 {failed} 项', 'Maintenance visit #{id}: {checked} items checked, {failed} failed', 'Техобслуживание № {id}: проверено пунктов — {checked}, не прошло — {failed}'),
  findings: localized('发现：{text}', 'findings: {text}', 'замечания: {text}'),
  firmwareDone: localized('固件 {version} 已安装，现运行 {running}', 'Firmware {version} installed, runs {running}', 'Прошивка {version} установлена, работает {running}'),
  firmwareFailed: localized('固件 {version} 未安装：{reason}；仍运行 {running}', 'Firmware {version} not installed: {reason}; runs {running}', 'Прошивка {version} не установлена: {reason}; работает {running}'),
  firmwareCampaign: localized('活动“{name}”，批准人 {approver}', 'campaign “{name}”, approved by {approver}', 'кампания «{name}», согласовал {approver}'),
} as const satisfies Record<string, LocalizedText>;

/** What a list separator and a clause separator are in the language. */
const sep = (lang: string) => (lang === 'zh-CN' ? '；' : '; ');

/** An object as "key: value, …", for data whose shape this export does not know. */
function plainLine(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

const stateText = (state: unknown, lang: string) =>
  typeof state === 'string' && state in INCIDENT_STATE_TEXTS ? pickText(INCIDENT_STATE_TEXTS[state as keyof typeof INCIDENT_STATE_TEXTS], lang) : String(state);

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** One entry in words, in `lang`. */
export function entryText(entry: Pick<LogbookEntry, 'kind' | 'data'>, lang: string): string {
  const d = entry.data;
  switch (entry.kind) {
    case 'command': {
      const parsed = LOGBOOK_DATA_SCHEMAS.command.safeParse(d);
      if (!parsed.success) break;
      const c = parsed.data;
      const command = c.type === 'config/set' ? pickText(LINES.configSet, lang) : commandText(c.name, c.args, lang);
      const outcome = auditResultText(c.state, lang);
      const line = c.reason ? fill(LINES.commandWhy, lang, { command, outcome, reason: refusalText(c.reason, lang) }) : fill(LINES.command, lang, { command, outcome });
      return c.approval?.approver ? `${line} · ${fill(LINES.approvedBy, lang, { name: c.approval.approver })}` : line;
    }
    case 'config': {
      const parsed = LOGBOOK_DATA_SCHEMAS.config.safeParse(d);
      if (!parsed.success) break;
      return fill(parsed.data.source === 'cloud' ? LINES.configCloud : LINES.configDevice, lang, { before: parsed.data.versionBefore, after: parsed.data.versionAfter });
    }
    case 'credential': {
      const parsed = LOGBOOK_DATA_SCHEMAS.credential.safeParse(d);
      if (!parsed.success) break;
      return fill(parsed.data.action === 'issued' ? LINES.credentialIssued : LINES.credentialRevoked, lang, { deviceNo: parsed.data.deviceNo });
    }
    case 'lease': {
      const parsed = LOGBOOK_DATA_SCHEMAS.lease.safeParse(d);
      if (!parsed.success) break;
      const texts = { taken: LINES.leaseTaken, takenOver: LINES.leaseTakenOver, released: LINES.leaseReleased, endedByLocalUse: LINES.leaseEndedByLocalUse };
      return fill(texts[parsed.data.action], lang, { previous: parsed.data.previousHolderName ?? pickText(PDF_TEXTS.someone, lang) });
    }
    case 'approval': {
      const parsed = LOGBOOK_DATA_SCHEMAS.approval.safeParse(d);
      if (!parsed.success) break;
      const a = parsed.data;
      const command = commandText(a.command, a.args, lang);
      if (a.action === 'requested') return a.reason ? fill(LINES.approvalRequestedWhy, lang, { command, reason: a.reason }) : fill(LINES.approvalRequested, lang, { command });
      const texts = { approved: LINES.approvalApproved, rejected: LINES.approvalRejected, withdrawn: LINES.approvalWithdrawn };
      return fill(texts[a.action], lang, { command });
    }
    case 'incident': {
      if (typeof d.incidentId !== 'number') break;
      const photo = d.photo as { contentType?: unknown; size?: unknown; sha256?: unknown } | undefined;
      if (photo && typeof photo === 'object') {
        const str = (v: unknown) => (typeof v === 'string' ? v : '');
        return fill(LINES.incidentPhoto, lang, { id: d.incidentId, type: str(photo.contentType).replace('image/', '').toUpperCase(), size: sizeText(Number(photo.size ?? 0)), sha: str(photo.sha256).slice(0, 12) });
      }
      if (typeof d.to !== 'string') break;
      const parts = [
        d.from === null || d.from === undefined
          ? fill(LINES.incidentOpened, lang, { id: d.incidentId, state: stateText(d.to, lang) })
          : fill(LINES.incidentChanged, lang, { id: d.incidentId, from: stateText(d.from, lang), to: stateText(d.to, lang) }),
      ];
      if (typeof d.title === 'string' && d.title) parts[0] += ` · ${d.title}`;
      if (typeof d.rootCause === 'string') parts.push(fill(LINES.rootCause, lang, { cause: d.rootCause in ROOT_CAUSE_TEXTS ? pickText(ROOT_CAUSE_TEXTS[d.rootCause as keyof typeof ROOT_CAUSE_TEXTS], lang) : d.rootCause }));
      if (Array.isArray(d.partsUsed) && d.partsUsed.length) parts.push(fill(LINES.parts, lang, { parts: d.partsUsed.join(', ') }));
      return parts.join(sep(lang));
    }
    case 'visit': {
      if (typeof d.visitId !== 'number') break;
      const parts = [fill(LINES.visit, lang, { id: d.visitId, checked: Number(d.checked ?? 0), failed: Number(d.failed ?? 0) })];
      if (typeof d.findings === 'string' && d.findings) parts.push(fill(LINES.findings, lang, { text: d.findings }));
      if (Array.isArray(d.partsUsed) && d.partsUsed.length) parts.push(fill(LINES.parts, lang, { parts: d.partsUsed.join(', ') }));
      return parts.join(sep(lang));
    }
    case 'firmware': {
      const parsed = LOGBOOK_DATA_SCHEMAS.firmware.safeParse(d);
      if (!parsed.success) break;
      const f = parsed.data;
      const version = f.version ?? '?';
      const parts = [
        f.state === 'done'
          ? fill(LINES.firmwareDone, lang, { version, running: f.runningVersion })
          : fill(LINES.firmwareFailed, lang, { version, running: f.runningVersion, reason: f.reason ? firmwareReasonText(f.reason, lang) : '—' }),
      ];
      if (f.campaignName) parts.push(fill(LINES.firmwareCampaign, lang, { name: f.campaignName, approver: f.approvedBy ?? '—' }));
      return parts.join(sep(lang));
    }
    default:
      break;
  }
  return plainLine(d);
}
