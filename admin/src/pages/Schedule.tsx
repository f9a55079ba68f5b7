import { ScheduleList } from '../components/ScheduleList';

export default function SchedulePage() {
  return <ScheduleList kind="upcoming" />;
}
