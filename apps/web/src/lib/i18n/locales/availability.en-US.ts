import type { AvailabilityKey } from './availability.zh-CN.ts';

/** en-US texts of the analysis page's availability section; the key set is that of availability.zh-CN.ts. */
const availabilityEnUS: Record<AvailabilityKey, string> = {
  'availability.title': 'Availability and reliability',
  'availability.months': 'Months',
  'availability.level.orgs': 'Organizations',
  'availability.level.sites': 'Sites',
  'availability.level.lifts': 'Lifts',
  'availability.level.lift': 'Lift',
  'availability.all': 'All organizations',
  'availability.noSite': '(no site)',
  'availability.name': 'Name',
  'availability.lifts': 'Lifts',
  'availability.availability': 'Availability',
  'availability.trips': 'Trips',
  'availability.failures': 'Failures',
  'availability.incidents': 'Incidents',
  'availability.mtta': 'MTTA',
  'availability.mttr': 'MTTR',
  'availability.mtbf': 'MTBF',
  'availability.mttaHelp':
    'Mean time to acknowledge: from an incident opening to its acknowledgement',
  'availability.mttrHelp': 'Mean time to restore: from an incident opening to its resolution',
  'availability.mtbfHelp': 'Mean time between failures: time in service divided by failures',
  'availability.perMonth': 'Availability per month',
  'availability.total': 'Total',
  'availability.asOf': 'Figures as of {{time}}',
  'availability.empty': 'No figures for these months',
  'availability.open': 'Show details',
  'availability.state.inService': 'In service',
  'availability.state.faulted': 'Faulted',
  'availability.state.stopped': 'Emergency stop',
  'availability.state.locked': 'Locked',
  'availability.state.disabled': 'Disabled',
  'availability.state.offline': 'Offline',
  'availability.state.maintenance': 'Maintenance',
  'availability.duration.seconds': '{{s}} s',
  'availability.duration.minutes': '{{m}} min',
  'availability.duration.hours': '{{h}} h {{m}} min',
  'availability.duration.days': '{{d}} d {{h}} h',
};

export default availabilityEnUS;
