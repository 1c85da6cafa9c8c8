// Not built yet: answers 404 until its feature lands.
import { data } from "react-router";
import { NotFoundContent } from "../components/NotFoundContent.tsx";

export function loader() {
  return data(null, { status: 404 });
}

export default function Pending() {
  return <NotFoundContent />;
}
