export { TimeRangeFilter } from '../../../components/time-range-filter.tsx';
