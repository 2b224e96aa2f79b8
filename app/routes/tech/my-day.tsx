import { MyDay } from '#client/features/tech/my-day.tsx';

export default function MyDayRoute() {
  return <MyDay />;
}
