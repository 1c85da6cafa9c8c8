import { Link } from "react-router";

export function NotFoundContent() {
  return (
    <div className="container page-message">
      <h1>Page Not Found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link className="btn btn-primary" to="/">
        Go To Home
      </Link>
    </div>
  );
}
