import { MyDay } from '#client/features/tech/index.ts';

export default function MyDayRoute() {
  return <MyDay />;
}
